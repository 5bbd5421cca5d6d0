"""``torch.autograd.anomaly_mode``: anomaly detection (``course_lib/torch_compat/anomaly.py``)."""

from ..torch_compat.anomaly import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]

detect_anomaly.__module__ = set_detect_anomaly.__module__ = __name__      # their class path (README.md, "Class names")
