"""The package's one error for bad input, kept free of the native module."""


class ScenarioError(ValueError):
    """A scenario, an option or a grid the engine refuses.

    ``str(error)`` is the message ``abrsim`` prints for the same input (after ``abrsim:``);
    ``problems`` lists every problem as ``(path, message)``, the path dotted as in the scenario
    file (``vcs.vc2.rif``), ``--set``, ``--window[i]`` or ``grid.PATH``.
    """

    def __init__(self, message, problems=()):
        super().__init__(message)
        self.message = message
        self.problems = [tuple(p) for p in problems]

    def __reduce__(self):
        return (type(self), (self.message, self.problems))
