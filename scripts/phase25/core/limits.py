"""Every hard limit of a run and of a record, in one place: the runner enforces them, a record is refused past them.

The caps were set for teaching snippets: a snippet that prints a megabyte would
put it into its record, both pages and both search indexes.
"""

from __future__ import annotations

STREAM_HALF = 32 * 1024  # bytes kept at each end of stdout and of stderr
STREAM_MAX = 4 * STREAM_HALF  # what a record's stream may hold: both ends, the marker, and normalization's tokens
MAX_ARTIFACT_BYTES = 512 * 1024  # one file a snippet declares in `artifacts`
MAX_PUBLISHED_BYTES = 4 * 1024 * 1024  # all the files one run publishes with the site, together
MAX_FILES = 200  # files one record keeps (artifacts and published files, each)
MAX_RECORD_BYTES = 16 * 1024 * 1024  # a record file, read before it is parsed
MAX_INPUT_BYTES = 64 * 1024 * 1024  # any file of a folder the build reads (a drift report holds about 22 MB)
MAX_TEXT = 4096  # a provenance value, an error message, an expected error
MAX_WALL_S = 24 * 3600.0  # a run's recorded wall time
MAX_PROCESSES = 256  # processes alive at once in one run, its snippet included
MAX_MEMORY_MB = 8 * 1024  # resident memory of one run, all its processes together
MAX_RANKS = 8  # ranks of one distributed snippet
MAX_WARNINGS = 500  # warnings one record lists
MAX_ARCHIVE_MEMBERS = 1000  # members of a GPU capture's archive, folders included
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024  # what a capture's archive may expand to, all members together
MAX_ARCHIVE_RATIO = 100  # how many times its compressed size an archive may expand to, past one record's size
MAX_ARCHIVE_READ = 1024 * 1024  # one read of an archive's stream: a header (long names included) or a chunk
