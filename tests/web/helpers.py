from django.core.files.uploadedfile import SimpleUploadedFile


def text_file(name: str, content: str | bytes) -> SimpleUploadedFile:
    data = content.encode("utf-8") if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="text/plain")


def build_test_set_form(team, **overrides):
    form = {
        "team": team.pk,
        "name": "newstest toy",
        "source_language": "fr",
        "target_language": "en",
        "text_type": "news",
        "description": "",
        "source_file": text_file("src.fr", "un\ndeux\ntrois\n"),
        "reference_files": [
            text_file("ref.A.en", "one\ntwo\nthree\n"),
            text_file("ref.B.en", "a one\na two\na three\n"),
        ],
        "reference_labels": "",
    }
    form.update(overrides)
    return form
