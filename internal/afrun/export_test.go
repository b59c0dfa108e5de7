package afrun

// Parse is parse, for the tests that hold it to cobra's reading.
var Parse = parse
