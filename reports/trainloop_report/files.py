"""Writing the report's files (the page, --figures' PDF and SVG): each whole
or not at all, into a new file beside it (created exclusively, so never
through a link) renamed over the name. A symbolic link planted at the name
is replaced itself; its target is never written."""

import os
import tempfile


def write_replacing(path, data):
    """Writes `data` (str, as UTF-8, or bytes) as the file `path`."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp creates 0600; a new file's usual mode
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
