"""state: see ARCHITECTURE.md#layers."""
