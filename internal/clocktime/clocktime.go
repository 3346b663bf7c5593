// Package clocktime holds what every reader of a written time shares: the
// 12-hour clock's morning and afternoon marks. The readers differ in what
// they accept around a time (a todo, a postcondition's value, an alarm, a
// wait); the marks mean one thing everywhere.
package clocktime

import "strings"

// Hour24 is hour h of the 12-hour clock, marked morning or afternoon, on
// the 24-hour clock: 7 pm is 19, 12 am is 0, 12 pm is 12. The mark is read
// without case or dots ("PM", "p.m.", "p"); with no mark, or another one, h
// is returned as it is.
func Hour24(h int, mark string) int {
	switch strings.ToLower(strings.ReplaceAll(mark, ".", "")) {
	case "p", "pm":
		if h < 12 {
			return h + 12
		}
	case "a", "am":
		if h == 12 {
			return 0
		}
	}
	return h
}
