"""Showing results: charts (figures from analysis tables; never statistics), the HTML report and
the binding of an analysis folder to its dataset."""
