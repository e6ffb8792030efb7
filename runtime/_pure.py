"""`MJC_PURE=1`: run the Python sources of `runtime/` and `generated/` even
where the compiled build is installed. Kept in Python (setup.py EXCLUDED):
`runtime/__init__.py` installs the finder before any compiled module loads.
"""

import os
import sys

PACKAGES = ("runtime", "generated")


class PureFinder:
    """A meta path finder: the `.py` file of a module of PACKAGES, never its
    extension module."""

    def find_spec(self, name, path=None, target=None):
        package, _, leaf = name.rpartition(".")
        if package not in PACKAGES or not path:
            return None
        # imported here, not at the top: only MJC_PURE=1 needs them, and they
        # cost ~7 ms of every import of a variant (issue 14); after the test
        # above, so that importing them does not come back here
        import importlib.machinery
        import importlib.util
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                loader = importlib.machinery.SourceFileLoader(name, source)
                return importlib.util.spec_from_file_location(name, source, loader=loader)
        return None


def wanted() -> bool:
    return os.environ.get("MJC_PURE", "") not in ("", "0")


def install() -> None:
    if not any(isinstance(f, PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, PureFinder())
