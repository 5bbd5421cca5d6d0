"""`python -m benchmarks`: course_lib vs raw NumPy vs PyTorch on the course's workloads."""
