"""Post-processing: quantities, impacts, comparison with references, plots."""
