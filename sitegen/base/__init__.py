"""base: see ARCHITECTURE.md#layers."""
