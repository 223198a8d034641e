package book

// Place is place, for the external tests (which may import games).
var Place = place
