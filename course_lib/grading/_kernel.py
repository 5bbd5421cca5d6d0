"""Launch an IPython kernel under resource limits: the kernel the batch grader runs submissions in.

    python -I -m course_lib.grading._kernel -f CONNECTION_FILE

The grader starts it inside the submission's sandbox, whose launcher (``_sandbox.py``) has set the
limits already.  Run by hand, it takes them from the environment:
``COURSE_LIB_GRADER_MEMORY_MB`` caps the address space (``RLIMIT_AS``), so a
runaway allocation raises ``MemoryError`` in the notebook instead of taking
the machine down; ``COURSE_LIB_GRADER_CPU_S`` caps CPU seconds (``RLIMIT_CPU``),
a last resort if every other timeout failed.  Where ``resource`` is missing
(Windows) the kernel runs without them; the grader's own watchdog still
kills a kernel whose memory grows past the limit.
"""

import os


def apply_limits(environ=os.environ):
    """Set RLIMIT_AS and RLIMIT_CPU from the environment; return the limits that were set."""
    applied = {}
    try:
        import resource
    except ImportError:          # Windows
        return applied
    memory_mb = int(environ.get("COURSE_LIB_GRADER_MEMORY_MB", "0") or 0)
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            applied["memory_mb"] = memory_mb
        except (ValueError, OSError):   # macOS does not enforce RLIMIT_AS
            pass
    cpu_s = int(environ.get("COURSE_LIB_GRADER_CPU_S", "0") or 0)
    if cpu_s > 0:
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 5))
            applied["cpu_s"] = cpu_s
        except (ValueError, OSError):
            pass
    return applied


def main():
    """Apply the limits, then run ipykernel exactly as ``python -m ipykernel_launcher`` would."""
    apply_limits()
    from ipykernel.kernelapp import launch_new_instance
    launch_new_instance()


if __name__ == "__main__":
    main()
