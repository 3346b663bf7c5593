package modelserver

import (
	"encoding/json"
	"regexp"
	"strings"
)

// roleChoose answers the request in which the planner chooses the phone
// of a goal started without one (docs/design.md#phone-fleet): the system
// prompt starts with "You are the planner, choosing the phone".
const roleChoose roleName = "choose"

// isChooser reports whether a request is a phone choice.
func isChooser(msgs []message) bool {
	return len(msgs) > 0 && msgs[0].Role == "system" &&
		strings.HasPrefix(strings.ToLower(msgs[0].Text), "you are the planner, choosing the phone")
}

// choicePhone is one phone of a choice request (planner.ChoicePhone).
type choicePhone struct {
	Serial  string   `json:"serial"`
	Labels  []string `json:"labels"`
	Model   string   `json:"model"`
	Android string   `json:"android"`
	Apps    []string `json:"apps"`
	Lock    string   `json:"lock"`
	State   string   `json:"state"`
}

type chooseRequest struct {
	Goal   string        `json:"goal"`
	Phones []choicePhone `json:"phones"`
}

// chooseAnswer chooses the goal's phone as a planner that reads the goal
// would: see decideChoice.
func (s *Server) chooseAnswer(msgs []message, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return [...]string{`{"serial":""}`, `The first phone.`, `{"serial":"no-such-phone","reason":"it is free"}`}[f.variant%3]
	}
	var req chooseRequest
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		if body, ok := jsonContext(msgs[i].Text); ok && json.Unmarshal([]byte(body), &req) == nil && len(req.Phones) > 0 {
			break
		}
	}
	serial, reason := decideChoice(req)
	b, _ := json.Marshal(map[string]string{"serial": serial, "reason": reason})
	return string(b)
}

// decideChoice applies three rules in order: a phone whose label, serial
// or model the goal names; else, when the phones list apps, a phone with
// every app the goal names; else the first free phone. Among the phones a
// rule allows, a free one comes first, then a held one, then the listing
// order. The reason says which rule chose.
func decideChoice(r chooseRequest) (serial, reason string) {
	if len(r.Phones) == 0 {
		return "", "no phone is listed"
	}
	best := func(ok func(choicePhone) bool) (choicePhone, bool) {
		var found []choicePhone
		for _, p := range r.Phones {
			if ok(p) {
				found = append(found, p)
			}
		}
		for _, state := range []string{"free", "held by another goal"} {
			for _, p := range found {
				if p.State == state {
					return p, true
				}
			}
		}
		if len(found) > 0 {
			return found[0], true
		}
		return choicePhone{}, false
	}
	var fleet []fleetPhone
	for _, p := range r.Phones {
		fleet = append(fleet, fleetPhone{Serial: p.Serial, Labels: p.Labels})
	}
	if _, marks := namedPhones(r.Goal, fleet); len(marks) > 0 {
		named := marks[0].Phone
		if label, ok := strings.CutPrefix(named, "label="); ok {
			if p, ok := best(func(p choicePhone) bool { return hasWord(p.Labels, label) }); ok {
				return p.Serial, "the goal names the label " + label + ", which phone " + p.Serial + " has"
			}
		}
		for _, p := range r.Phones {
			if p.Serial == named {
				return p.Serial, "the goal names phone " + p.Serial
			}
		}
	}
	goal := strings.ToLower(r.Goal)
	for _, p := range r.Phones {
		if p.Serial != "" && strings.Contains(goal, strings.ToLower(p.Serial)) {
			return p.Serial, "the goal names phone " + p.Serial
		}
	}
	if p, ok := best(func(p choicePhone) bool { return p.Model != "" && mentions(r.Goal, p.Model) }); ok {
		return p.Serial, "the goal names the model " + p.Model + ", which phone " + p.Serial + " is"
	}
	if apps := appsNamed(r.Goal, r.Phones); len(apps) > 0 {
		if p, ok := best(func(p choicePhone) bool {
			for _, a := range apps {
				if !hasWord(p.Apps, a) {
					return false
				}
			}
			return true
		}); ok {
			return p.Serial, "the goal needs " + strings.Join(apps, " and ") + ", which phone " + p.Serial + " has"
		}
	}
	p, _ := best(func(choicePhone) bool { return true })
	if p.State == "free" {
		return p.Serial, "the goal names no phone and needs no app only some phones have: " + p.Serial + " is the first free phone"
	}
	return p.Serial, "the goal names no phone and no phone is free: " + p.Serial + " is the first listed"
}

// appsNamed are the apps any listed phone has that the goal names, in
// the order first listed.
func appsNamed(goal string, phones []choicePhone) []string {
	var out []string
	for _, p := range phones {
		for _, a := range p.Apps {
			if !hasWord(out, a) && mentions(goal, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// mentions reports whether text holds name as whole words, any case.
func mentions(text, name string) bool {
	return regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(strings.TrimSpace(name)) + `\b`).MatchString(text)
}

// hasWord reports whether list holds w, any case.
func hasWord(list []string, w string) bool {
	for _, s := range list {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}
