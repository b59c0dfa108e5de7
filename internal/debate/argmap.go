package debate

// ArgumentMap is a debate's arguments and the relations between them, as
// a format whose debates build a graph of arguments (formal) gives them to
// the views that draw it (the dashboard's argument map), so that a view
// draws any such format's without knowing it.
type ArgumentMap struct {
	// Sides are the parties whose arguments the map shows in columns,
	// left to right ("PRO", "MOD", "OPP").
	Sides     []string
	Arguments []MapArgument
	Relations []MapRelation
}

// MapArgument is one argument of an ArgumentMap.
type MapArgument struct {
	// ID names the argument in the map and in its relations.
	ID string
	// Side is the party that made it, one of the map's Sides.
	Side string
	Text string
	// Score is its strength from 0 to 1 (formal: its gradual score).
	Score     float64
	Retracted bool
}

// MapRelation is an argument's bearing on another.
type MapRelation struct {
	From, To string
	// Support is true when From supports To; otherwise it attacks it.
	Support bool
}
