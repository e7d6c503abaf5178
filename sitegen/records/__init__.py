"""records: see ARCHITECTURE.md#layers."""
