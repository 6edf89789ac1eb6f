"""Reading a viewer page in tests: the JSON its data elements carry."""

from __future__ import annotations

import json
import re


def page_data(page: str, element: str = "game-data") -> dict[str, object]:
    """The JSON of a viewer's data element: its games ("game-data") or its kit ("gcadj-kit")."""
    found = re.search(rf'<script type="application/json" id="{element}">(.*?)</script>', page)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data
