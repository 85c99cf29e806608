// Registers every board renderer.
