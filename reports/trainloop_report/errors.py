"""Errors the report stops on. A ReportError is bad input (exit code 2): a
missing, empty, foreign or malformed database, or an option naming something
the database does not hold. Anything else is an internal error (exit 1)."""


class ReportError(Exception):
    def __init__(self, where, message, expected=None, hint=None):
        super().__init__(message)
        self.where = where
        self.message = message
        self.expected = expected
        self.hint = hint

    def __str__(self):
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.expected:
            text += f"\n  expected: {self.expected}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text
