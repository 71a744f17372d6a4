"""The rules error family: every refusal names the rule it applies (RULES.md ids)."""


class RuleViolation(ValueError):
    """An action or a meld breaks a rule.

    ``rule`` is the RULES.md id (``"R4.3"``); ``message`` is a sentence a player understands.
    ``str(error)`` is ``"R4.3: <message>"``.
    """

    def __init__(self, rule, message):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class MalformedAction(RuleViolation):
    """The input is outside the action vocabulary of FORMAT.md.

    An unknown action type, a missing field or an unparseable card code. ``rule`` is the
    closest rule id (``"R1.2"`` for a string that is no card of the deck).
    """
