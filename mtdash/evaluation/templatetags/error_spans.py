"""``{{ category|breakable }}``: an error category that may wrap after each
slash (``Accuracy/<wbr>Mistranslation``), so a narrow table column breaks
it between its parts rather than inside a word. Each part is escaped."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_BREAK = mark_safe("/<wbr>")  # a constant: no user text is marked safe


@register.filter
def breakable(value: str) -> SafeString:
    return format_html_join(_BREAK, "{}", ((part,) for part in str(value).split("/")))
