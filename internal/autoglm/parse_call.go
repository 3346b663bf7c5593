package autoglm

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// value is one parsed argument value.
type value struct {
	str   string
	pt    *Point
	isStr bool // a quoted string or bare word
	bad   string
}

// parseCall parses the arguments of name( starting at text[i] and returns
// the action and the index after the closing parenthesis, or a reason.
func parseCall(text, name string, i int) (Action, int, string) {
	args := map[string]value{}
	var positional []value
	for {
		i = skipSpace(text, i)
		if i >= len(text) || endOfAnswer(text, i) {
			break // a call cut off at the end of the answer: its arguments are complete
		}
		if j, ok := consumeClose(text, i); ok {
			i = j
			break
		}
		key := ""
		if k := identEnd(text, i); k > i {
			j := skipSpace(text, k)
			if e, ok := consume(text, j, "=", "＝", ":", "："); ok {
				key = strings.ToLower(text[i:k])
				i = skipSpace(text, e)
			}
		}
		v, j, err := parseValue(text, i)
		if err != "" {
			return Action{}, 0, err
		}
		i = j
		if key == "" {
			positional = append(positional, v)
		} else {
			args[key] = v
		}
		i = skipSpace(text, i)
		if j, ok := consume(text, i, ",", "，", "、"); ok {
			i = j
			continue
		}
		if i >= len(text) || endOfAnswer(text, i) {
			break
		}
		if j, ok := consumeClose(text, i); ok {
			i = j
			break
		}
		return Action{}, 0, fmt.Sprintf("unexpected %q in %s(...): separate arguments with commas", clip(text[i:]), name)
	}
	if name == "finish" {
		a := Action{Name: ActionFinish}
		if m, ok := args["message"]; ok {
			a.Message = m.str
		} else if len(positional) == 1 && positional[0].isStr {
			a.Message = positional[0].str
		}
		return a, i, ""
	}
	av, ok := args["action"]
	if !ok || !av.isStr {
		return Action{}, 0, `do(...) without action="...": name the action`
	}
	canon, ok := canonicalAction(av.str)
	if !ok {
		return Action{}, 0, fmt.Sprintf("unknown action %q: use one of Launch, Tap, Type, Type_Name, Swipe, Long Press, Double Tap, Back, Home, Wait, Take_over, Interact, Note, Call_API, finish", av.str)
	}
	a := Action{Name: canon}
	str := func(key string) (string, bool) {
		v, ok := args[key]
		if !ok {
			return "", false
		}
		if !v.isStr {
			return "", false
		}
		return v.str, true
	}
	point := func(key string) (*Point, string) {
		v, ok := args[key]
		if !ok {
			return nil, fmt.Sprintf("%s needs %s=[x,y] with numbers from 0 to 999", canon, key)
		}
		if v.bad != "" {
			return nil, fmt.Sprintf("%s %s: %s", canon, key, v.bad)
		}
		if v.pt != nil {
			return v.pt, ""
		}
		p, bad := pointFromString(v.str)
		if bad != "" {
			return nil, fmt.Sprintf("%s %s=%q: %s", canon, key, v.str, bad)
		}
		return p, ""
	}
	var bad string
	switch canon {
	case ActionLaunch:
		a.App, _ = str("app")
		a.App = strings.TrimSpace(a.App)
		if a.App == "" {
			return Action{}, 0, `Launch needs app="<app name>"`
		}
	case ActionTap, ActionLongPress, ActionDoubleTap:
		if a.Element, bad = point("element"); bad != "" {
			return Action{}, 0, bad
		}
		if canon == ActionTap {
			a.Message, _ = str("message")
		}
	case ActionType, ActionTypeName:
		var ok bool
		if a.Text, ok = str("text"); !ok {
			return Action{}, 0, canon + ` needs text="..."`
		}
	case ActionSwipe:
		if a.Start, bad = point("start"); bad != "" {
			return Action{}, 0, bad
		}
		if a.End, bad = point("end"); bad != "" {
			return Action{}, 0, bad
		}
	case ActionWait:
		a.Duration, _ = str("duration")
	case ActionTakeOver, ActionInteract, ActionNote:
		a.Message, _ = str("message")
	case ActionCallAPI:
		a.Instruction, _ = str("instruction")
	case ActionFinish:
		a.Message, _ = str("message")
	}
	return a, i, ""
}

// canonicalAction maps the spellings models use to the protocol's names.
func canonicalAction(s string) (string, bool) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer(" ", "", "_", "", "-", "").Replace(k)
	switch k {
	case "launch", "openapp":
		return ActionLaunch, true
	case "tap", "click":
		return ActionTap, true
	case "type", "input":
		return ActionType, true
	case "typename":
		return ActionTypeName, true
	case "swipe", "scroll":
		return ActionSwipe, true
	case "longpress":
		return ActionLongPress, true
	case "doubletap", "doubleclick":
		return ActionDoubleTap, true
	case "back":
		return ActionBack, true
	case "home":
		return ActionHome, true
	case "wait":
		return ActionWait, true
	case "takeover":
		return ActionTakeOver, true
	case "interact":
		return ActionInteract, true
	case "note":
		return ActionNote, true
	case "callapi":
		return ActionCallAPI, true
	case "finish":
		return ActionFinish, true
	}
	return "", false
}

// parseValue reads a quoted string, a [x,y] list or a bare word at text[i].
func parseValue(text string, i int) (value, int, string) {
	if i >= len(text) {
		return value{}, i, "argument value missing"
	}
	if isQuote(text, i) {
		s, j, ok := readString(text, i)
		if !ok {
			return value{}, i, "unterminated string: close it with a quote"
		}
		return value{str: s, isStr: true}, j, ""
	}
	if j, ok := consume(text, i, "[", "［", "【", "("); ok {
		var items []string
		cur := j
		for {
			k := cur
			for k < len(text) {
				if _, ok := consume(text, k, "]", "］", "】", ")", ",", "，"); ok {
					break
				}
				k++
			}
			if k >= len(text) {
				return value{}, i, "unclosed [x,y] list: close it with ]"
			}
			items = append(items, strings.TrimSpace(text[cur:k]))
			if e, ok := consume(text, k, ",", "，"); ok {
				cur = e
				continue
			}
			e, _ := consume(text, k, "]", "］", "】", ")")
			v := value{}
			v.pt, v.bad = pointFromItems(items)
			return v, e, ""
		}
	}
	k := i
	for k < len(text) {
		if _, ok := consume(text, k, ",", "，", ")", "）", "\n"); ok || endOfAnswer(text, k) {
			break
		}
		k++
	}
	word := strings.TrimSpace(text[i:k])
	if word == "" {
		return value{}, i, "argument value missing"
	}
	return value{str: word, isStr: true}, k, ""
}

// pointFromItems checks a two-number list on the 0-999 grid.
func pointFromItems(items []string) (*Point, string) {
	if len(items) != 2 {
		return nil, fmt.Sprintf("want two coordinates [x,y], got %d", len(items))
	}
	var p Point
	for n, it := range items {
		f, err := strconv.ParseFloat(strings.Trim(it, `"' `), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Sprintf("placeholder or non-numeric coordinates [%s]: give numbers from 0 to 999", strings.Join(items, ","))
		}
		v := int(math.Round(f))
		if f < 0 || f > 999.5 || v > 999 {
			return nil, fmt.Sprintf("coordinate %s is outside 0-999: coordinates are relative, not pixels", it)
		}
		p[n] = v
	}
	return &p, ""
}

// pointFromString reads a point written as a string, e.g. element="[5,6]".
func pointFromString(s string) (*Point, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, "empty coordinates"
	}
	v, _, err := parseValue(s, 0)
	if err != "" {
		return nil, err
	}
	if v.pt == nil && v.bad == "" {
		return nil, "want [x,y] with numbers from 0 to 999"
	}
	return v.pt, v.bad
}
