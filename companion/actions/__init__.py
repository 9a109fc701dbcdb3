"""The use cases: one function per thing a person does, one transaction each.

Pages, the API and the command line call these and nothing below them writes.
"""
