"""What mypyc, which compiles the hot modules of the ordinary install, must be told about a
class; nothing at run time.

mypyc turns every class of a compiled module into a native class, whose instances its
compiled callers check by exact type. A class that other modules subclass in Python (the
error types: a page error is a log syntax error) says so with
``@mypyc_attr(allow_interpreted_subclasses=True)``, so compiled code accepts the subclasses
and calls their overrides. The pure-Python build (and the source tree) runs the stand-in
below, which leaves the class as it is; the build hook's compiler reads the real one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*attrs, **kwattrs):
        """No-op outside mypyc: the class decorated is returned unchanged."""
        return lambda cls: cls


__all__ = ["mypyc_attr"]
