"""Corpus files as researchers have them: plain text, NIST SGML, WMT XML, TSV,
gzip and ZIP archives of these, read into one :class:`ParsedCorpus`.

    from scoring.formats import read_corpus

    corpus = read_corpus(data, "newstest2019-deen-ref.en.sgm")
    corpus.detected        # "NIST SGML (refset): 1 reference, 2,000 segments ..."
    corpus.references, corpus.systems, corpus.document_ids

One module per format (``plain``, ``sgml``, ``wmt_xml``, ``tsv``), each with
its reader and writer; ``archives`` unpacks gzip and ZIP within limits;
``align`` lines streams up by document and segment id; ``reader`` detects
the format. Every refusal is a :class:`CorpusFormatError` naming the file,
the line and the problem.
"""

from scoring.formats.archives import DEFAULT_LIMITS, ArchiveLimits
from scoring.formats.model import CorpusFormatError, ParsedCorpus
from scoring.formats.plain import write_plain
from scoring.formats.reader import FORMATS, detect_format, read_corpus
from scoring.formats.sgml import write_sgml
from scoring.formats.tsv import write_tsv
from scoring.formats.wmt_xml import write_wmt_xml

__all__ = [
    "DEFAULT_LIMITS",
    "FORMATS",
    "ArchiveLimits",
    "CorpusFormatError",
    "ParsedCorpus",
    "detect_format",
    "read_corpus",
    "write_plain",
    "write_sgml",
    "write_tsv",
    "write_wmt_xml",
]
