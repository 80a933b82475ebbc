"""The rule engine: one check per rule, the registry of codes and penalties, and messages."""
