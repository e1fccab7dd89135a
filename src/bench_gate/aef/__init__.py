"""AEF evidence: recomputing run seals and verifying their optional DSSE signatures."""
