package kitchen

// Logger hears what the kitchen's people decide, one line at a time: the
// waiter, the rail, the chef and the brigade tell it who acts ("chef")
// and what, as a format and its arguments. narration.Narrator (package
// kitchen/narration) writes each line with the kitchen minute; a nil
// Logger tells nobody.
type Logger interface {
	// Say tells a hand-off: a line of the story.
	Say(who, format string, args ...any)
	// Detail tells what only the curious want to read.
	Detail(who, format string, args ...any)
}

// silent is the Logger of nobody.
type silent struct{}

func (silent) Say(string, string, ...any)    {}
func (silent) Detail(string, string, ...any) {}

// orSilent returns l, or a Logger that tells nobody if l is nil.
func orSilent(l Logger) Logger {
	if l == nil {
		return silent{}
	}
	return l
}
