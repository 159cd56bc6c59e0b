"""The game systems: one package each (``tobruk/systems/<name>/``), registering itself with the engine.

The engine finds them by importing every package here (:func:`tobruk.engine.system.system_for`); nothing
outside a system's package imports it.
"""
