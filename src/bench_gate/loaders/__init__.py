"""Reading inputs: strict JSON and JSON Lines, the streamed dataset, AEF run folders;
confinement to the evidence root, size caps and SHA-256 of every file read.
"""
