package modelserver

import (
	"regexp"
	"sort"
	"strings"
)

// fleetPhone is a phone of the fleet the planner is shown
// (docs/design.md#goals-that-span-phones).
type fleetPhone struct {
	Serial string   `json:"serial"`
	Labels []string `json:"labels"`
}

// phoneMark is where the goal named a phone: the phone ("label=L" or a
// serial) and the offset in the goal with the naming words taken out.
type phoneMark struct {
	Phone string
	At    int
}

// namedPhones takes the words that name a phone of the fleet out of the
// goal ("on the work phone", "on the phone labelled work", "on the
// tablet", "on phone emulator-5556") and says where each stood. Only
// labels and serials the fleet lists count.
func namedPhones(goal string, fleet []fleetPhone) (string, []phoneMark) {
	type name struct{ word, phone string }
	var names []name
	seen := map[string]bool{}
	for _, p := range fleet {
		if p.Serial != "" && !seen[p.Serial] {
			seen[p.Serial] = true
			names = append(names, name{p.Serial, p.Serial})
		}
		for _, l := range p.Labels {
			if l != "" && !seen["label="+l] {
				seen["label="+l] = true
				names = append(names, name{l, "label=" + l})
			}
		}
	}
	if len(names) == 0 {
		return goal, nil
	}
	// Longer names first, so "work-tablet" is not read as "work".
	sort.SliceStable(names, func(i, j int) bool { return len(names[i].word) > len(names[j].word) })
	var alts []string
	for _, n := range names {
		alts = append(alts, regexp.QuoteMeta(n.word))
	}
	w := `(` + strings.Join(alts, "|") + `)`
	re := regexp.MustCompile(`(?i)\s*\bon (?:the |my )?(?:phone|tablet|device) (?:labell?ed |called |named )?` + w + `\b|\s*\bon (?:the |my )?` + w + `(?: phone| tablet| device)?\b`)
	phoneOf := map[string]string{}
	for _, n := range names {
		phoneOf[strings.ToLower(n.word)] = n.phone
	}
	var out strings.Builder
	var marks []phoneMark
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(goal, -1) {
		word := ""
		for g := 1; g < len(m)/2; g++ {
			if m[2*g] >= 0 {
				word = goal[m[2*g]:m[2*g+1]]
			}
		}
		out.WriteString(goal[last:m[0]])
		marks = append(marks, phoneMark{Phone: phoneOf[strings.ToLower(word)], At: out.Len()})
		last = m[1]
	}
	out.WriteString(goal[last:])
	return out.String(), marks
}

// phoneOfClause is the phone named at the end of, or within, the clause
// of the goal that starts at or after from; next is where to look for the
// next clause.
func phoneOfClause(goal, clause string, from int, marks []phoneMark) (phone string, next int) {
	i := strings.Index(strings.ToLower(goal[min(from, len(goal)):]), strings.ToLower(clause))
	if clause == "" || i < 0 {
		return "", from
	}
	start := from + i
	end := start + len(clause)
	for _, m := range marks {
		if m.At >= start && m.At <= end {
			phone = m.Phone
		}
	}
	return phone, end
}
