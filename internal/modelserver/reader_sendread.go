package modelserver

import (
	"fmt"
	"regexp"
	"strings"
)

// rdZhSendReadRe is a clause that sends what the clause before read, in
// Chinese with the object left out: "查看第一个闹钟的时间并发给妈妈",
// "…，然后把它发给Bob".
var rdZhSendReadRe = regexp.MustCompile(`^(?:并且?|然后|再)?\s*(?:把(?:它|这个|结果|时间|内容|标签))?\s*(?:发给|发送给|告诉|转告)\s*(.+?)$`)

// sendReadTo reads such a clause after a read (docs/design.md §9): the
// message's text is the value read, written once the read is done; ok is
// false for any other clause.
func sendReadTo(c string, prev planned) ([]planned, bool) {
	m := rdZhSendReadRe.FindStringSubmatch(c)
	if m == nil || !prev.Reads {
		return nil, false
	}
	to := strings.TrimSpace(m[1])
	if v, ok := rdContacts[strings.ToLower(to)]; ok {
		to = v
	}
	if to == "" {
		return []planned{{Ask: "Who should I send what was read to?"}}, true
	}
	return []planned{{Todo: fmt.Sprintf("Send %s a message with what was read", to)}}, true
}
