"""The constraints a distribution's parameters and samples must satisfy (``torch.distributions.constraints``).

Each constraint's ``check(value)`` returns a boolean tensor; its ``repr`` is PyTorch's
(``GreaterThan(lower_bound=0.0)``), because it appears in the ValueError a distribution raises for an invalid parameter.
"""

__all__ = ["Constraint", "boolean", "dependent", "dependent_property", "greater_than", "integer_interval", "interval",
           "is_dependent", "less_than", "multinomial", "positive", "real", "real_vector", "simplex", "unit_interval"]


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return self.__class__.__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters (not checked when a distribution is made)."""

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    def __init__(self, fn, is_discrete, event_dim):
        property.__init__(self, fn)
        self.is_discrete = is_discrete
        self.event_dim = event_dim


def dependent_property(fn=None, *, is_discrete=False, event_dim=0):
    """A property whose value is a constraint computed from the distribution (``Uniform.support``): used as
    ``@dependent_property`` or ``@dependent_property(is_discrete=True, event_dim=0)``."""
    if fn is None:
        return lambda f: _DependentProperty(f, is_discrete, event_dim)
    return _DependentProperty(fn, is_discrete, event_dim)


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Real(Constraint):
    def check(self, value):
        return value == value                # False for NaN


class _IndependentReal(_Real):
    event_dim = 1

    def check(self, value):
        return (value == value).all(-1)

    def __repr__(self):
        return "IndependentConstraint(Real(), 1)"


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self):
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self):
        return f"LessThan(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _Multinomial(Constraint):
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        return (x >= 0).all(dim=-1) & (x.sum(dim=-1) <= self.upper_bound)


dependent = _Dependent()
boolean = _Boolean()
real = _Real()
real_vector = _IndependentReal()
positive = _GreaterThan(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
greater_than = _GreaterThan
less_than = _LessThan
interval = _Interval
integer_interval = _IntegerInterval
multinomial = _Multinomial
