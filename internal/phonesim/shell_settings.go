package phonesim

import (
	"sort"
	"strconv"
	"strings"
)

func (p *Phone) imeIDs(all bool) []string {
	ids := []string{imeLatin}
	if p.st.IMEInstalled && (all || p.st.imeEnabled) {
		ids = append(ids, imeADB)
	}
	return ids
}

func (p *Phone) cmdIme(e *cmdEnv) int {
	args := e.args[1:]
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(args) == 0 {
		e.err("ime <command>:\n  list [-a] [-s]\n  enable <ID>\n  disable <ID>\n  set <ID>\n  reset\n")
		return 1
	}
	known := func(id string) bool { return id == imeLatin || (id == imeADB && p.st.IMEInstalled) }
	switch args[0] {
	case "list":
		all, short := false, false
		for _, a := range args[1:] {
			all = all || a == "-a"
			short = short || a == "-s"
		}
		for _, id := range p.imeIDs(all) {
			if short {
				e.out("%s\n", id)
			} else {
				pkg, svc, _ := strings.Cut(id, "/")
				e.out("%s:\n  mId=%s mSettingsActivityName=null\n  Service:\n    packageName=%s\n    name=%s\n", id, id, pkg, svc)
			}
		}
	case "enable", "disable":
		if len(args) < 2 {
			e.err("Error: %s needs an input method ID\n", args[0])
			return 1
		}
		id := args[1]
		if !known(id) {
			e.err("Unknown input method %s cannot be enabled for user #0\n", id)
			return 1
		}
		if id == imeADB {
			was := p.st.imeEnabled
			p.st.imeEnabled = args[0] == "enable"
			if args[0] == "disable" && p.st.InputMethod == imeADB {
				p.st.InputMethod = imeLatin
			}
			if was == p.st.imeEnabled {
				e.out("Input method %s: already %sd for user #0\n", id, args[0])
				return 0
			}
		}
		e.out("Input method %s: now %sd for user #0\n", id, args[0])
	case "set":
		if len(args) < 2 {
			e.err("Error: set needs an input method ID\n")
			return 1
		}
		id := args[1]
		if !known(id) || (id == imeADB && !p.st.imeEnabled) {
			e.err("Unknown input method %s cannot be selected for user #0\n", id)
			return 1
		}
		p.st.InputMethod = id
		e.out("Input method %s selected for user #0\n", id)
	case "reset":
		p.st.InputMethod = imeLatin
		e.out("Reset input methods for user #0\n")
	default:
		e.err("Unknown command: %s\n", args[0])
		return 1
	}
	return 0
}

func boolInt(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (p *Phone) cmdSettings(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) >= 1 && args[0] == "--user" && len(args) >= 2 {
		args = args[2:]
	}
	if len(args) < 2 || (args[0] != "get" && args[0] != "put" && args[0] != "list" && args[0] != "delete") {
		e.err("usage:  settings [--user <USER_ID>] get namespace key\n        settings [--user <USER_ID>] put namespace key value\n")
		return 1
	}
	ns := args[1]
	if ns != "system" && ns != "secure" && ns != "global" {
		e.err("Invalid namespace '%s'\n", ns)
		return 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	st := &p.st
	vals := map[string]string{
		"secure/default_input_method":   st.InputMethod,
		"secure/enabled_input_methods":  strings.Join(p.imeIDs(false), ":"),
		"global/airplane_mode_on":       boolInt(st.Toggles.Airplane),
		"global/wifi_on":                boolInt(st.Toggles.WiFi),
		"global/bluetooth_on":           boolInt(st.Toggles.Bluetooth),
		"system/screen_brightness":      strconv.Itoa(st.Brightness * 255 / 100),
		"system/screen_brightness_mode": boolInt(st.Toggles.AdaptiveBrightness),
	}
	switch args[0] {
	case "list":
		keys := make([]string, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if n, key, _ := strings.Cut(k, "/"); n == ns {
				e.out("%s=%s\n", key, vals[k])
			}
		}
		return 0
	case "get":
		if len(args) < 3 {
			e.err("Error: get needs a key\n")
			return 1
		}
		if v, ok := vals[ns+"/"+args[2]]; ok {
			e.out("%s\n", v)
		} else {
			e.out("null\n")
		}
		return 0
	case "delete":
		e.out("Deleted 0 rows\n")
		return 0
	}
	if len(args) < 4 {
		e.err("Error: put needs a key and a value\n")
		return 1
	}
	key, val := ns+"/"+args[2], args[3]
	switch key {
	case "secure/default_input_method":
		st.InputMethod = val
	case "global/airplane_mode_on":
		st.Toggles.Airplane = val == "1"
	case "global/wifi_on":
		st.Toggles.WiFi = val == "1"
	case "global/bluetooth_on":
		st.Toggles.Bluetooth = val == "1"
	case "system/screen_brightness_mode":
		st.Toggles.AdaptiveBrightness = val == "1"
	case "system/screen_brightness":
		if n, err := strconv.Atoi(val); err == nil {
			st.Brightness = min(max(n*100/255/10*10, 0), 100)
		}
	}
	return 0
}
