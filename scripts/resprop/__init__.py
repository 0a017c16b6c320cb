"""ReSprop's and GSCN's reproduction (scripts/reproduce_resprop.py is its command), one module
per job: thesis -> readings -> runs -> measures -> *_section(s) -> document."""
