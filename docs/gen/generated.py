"""Every generated page of the docs site, as {path under docs/: markdown}."""

from __future__ import annotations

import api_reference
import cli_reference
import results_pages
import rule_table
import variant_pages


def all_pages() -> dict[str, str]:
    return {cli_reference.PAGE: cli_reference.page(), rule_table.PAGE: rule_table.page(),
            **api_reference.pages(), **variant_pages.pages(), **results_pages.pages()}
