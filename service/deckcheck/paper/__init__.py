"""Paper at the desk: a deck registration sheet printed as a PDF (`sheet`), and a printed list read back from a
photo, a scan or a PDF (`read`): its QR code first, which is exact, else its lines by OCR, each uncertain line
marked for staff to confirm. Part of the core: it imports no web framework."""
