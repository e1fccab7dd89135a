"""Profiles and policies: strict YAML, the schema models, extends/merge, parameters, binding
into a compiled plan, and the precompiled built-in profiles.
"""
