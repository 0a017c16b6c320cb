"""Eager Pruning's reproduction (scripts/reproduce_eager_pruning.py is its command), one
module per job: paper -> readings -> runs -> measures -> *_sections -> document."""
