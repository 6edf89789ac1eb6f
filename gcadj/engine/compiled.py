"""What mypyc, which compiles the hot modules of the ordinary install, must be told about a
class, and what a compiled class needs to behave like its Python original.

mypyc turns every class of a compiled module into a native class: faster, but closed
(compiled callers check its instances by exact type, so Python subclasses are refused
unless it says ``@mypyc_attr(allow_interpreted_subclasses=True)``) and blind to Python's
class machinery beyond dataclasses (a field that is a descriptor, as `Verdict.final_fen`,
needs ``@mypyc_attr(native_class=False)``: a plain Python class in a compiled module).
The error types, which Python code subclasses, live in `gcadj.errors`, which is not
compiled. The pure-Python build (and the source tree) runs the stand-in below, which
leaves the class as it is; the build hook's compiler reads the real one.

A compiled frozen dataclass cannot be unpickled the default way (its state is restored
by assignments, which a frozen class refuses), so the frozen dataclasses of the compiled
modules define ``__reduce__`` with `rebuild_args`: pickling then calls the constructor,
in both builds alike.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*attrs, **kwattrs):
        """No-op outside mypyc: the class decorated is returned unchanged."""
        return lambda cls: cls


def rebuild_args(obj: Any) -> tuple[Any, ...]:
    """The constructor arguments that rebuild a dataclass instance: its init fields."""
    return tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init)


__all__ = ["mypyc_attr", "rebuild_args"]
