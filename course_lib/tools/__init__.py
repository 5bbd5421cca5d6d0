"""Maintainer tools (not needed by learners): re-executing notebooks."""
