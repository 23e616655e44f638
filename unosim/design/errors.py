"""The error of an invalid design spec, in a module of its own: the design package and the command line's
parser name it without loading the objectives (which import the analyses)."""


class DesignSpecError(ValueError):
    """An invalid design spec: one line naming the bad value and the valid choices."""
