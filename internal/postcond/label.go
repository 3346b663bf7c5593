package postcond

import (
	"strings"
	"unicode"
)

// How a label a check names is compared with the words a screen shows
// (docs/design.md#verification-and-honest-status): the same words after
// normalisation, never a prefix, so "Bluetooth" is not the label of
// "Bluetooth tethering".

// foldRune maps the characters real strings use for a plain one: every
// Unicode dash and minus to "-", every kind of space (no-break, narrow,
// ideographic) to " ", and drops the invisible format characters
// (zero-width space, direction marks).
func foldRune(r rune) rune {
	switch r {
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\uFE63', '\uFF0D':
		return '-'
	case '\u200B', '\u200C', '\u200D', '\u200E', '\u200F', '\u2060', '\uFEFF':
		return -1
	}
	if unicode.IsSpace(r) || unicode.Is(unicode.Zs, r) {
		return ' '
	}
	return r
}

// norm folds case, dashes and spaces, and runs of white space to one.
func norm(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.Map(foldRune, s)), " "))
}

func same(a, b string) bool { return a != "" && norm(a) == norm(b) }

// trailingMarks end a label without being part of it: the full stop a
// Quick Settings tile's description ends with ("Bluetooth.", "蓝牙。"), a
// colon before a value.
const trailingMarks = ".。:：,，;；"

// State words a tile or a row appends to its label.
var (
	stateSuffixes = []struct {
		s  string
		on bool
	}{
		{"已开启", true}, {"已关闭", false}, {"已打开", true}, {"已启用", true}, {"已停用", false}, {"已開啟", true}, {"已關閉", false},
	}
	stateWords = map[string]bool{
		"on": true, "off": false, "开启": true, "关闭": false, "已开启": true, "已关闭": false,
		"打开": true, "已打开": true, "已启用": true, "已停用": false, "开": true, "关": false,
		// Other languages real tiles and switch bars say their state in.
		"activado": true, "desactivado": false, "activada": true, "desactivada": false, "se habilitó": true, "se deshabilitó": false,
		"habilitado": true, "deshabilitado": false, "encendido": true, "apagado": false,
		"ativado": true, "desativado": false, "ligado": true, "desligado": false,
		"włączony": true, "wyłączony": false, "włączono": true, "wyłączono": false, "włączone": true, "wyłączone": false,
		"włączona": true, "wyłączona": false, "activé": true, "désactivé": false, "bật": true, "tắt": false,
		"켜짐": true, "꺼짐": false, "เปิด": true, "ปิด": false, "вкл": true, "выкл": false, "включено": true, "выключено": false,
		"açık": true, "kapalı": false,
		"ein": true, "aus": false, "eingeschaltet": true, "ausgeschaltet": false,
		"attivo": true, "disattivo": false, "attivato": true, "disattivato": false, "attiva": true, "disattiva": false,
		"aan": true, "uit": false, "aktif": true, "nonaktif": false, "オン": true, "オフ": false,
		"開啟": true, "關閉": false, "已開啟": true, "已關閉": false,
	}
)

// labelForm is a label as it is compared: normalised, trailing marks and
// a state suffix removed ("Bluetooth, On" → "bluetooth", "蓝牙。" → "蓝牙",
// "飞行模式 已开启" → "飞行模式"). state is the state the suffix says:
// 1 on, 0 off, -1 none. A text that is only a state word ("On", "关闭")
// has the empty label.
func labelForm(s string) (label string, state int) {
	l := strings.TrimRight(norm(s), trailingMarks+" ")
	state = -1
	if on, ok := stateWords[l]; ok {
		return "", b2i(on)
	}
	// "Bluetooth, On": state words only after a comma (not the "on" of
	// "Turn on"); Chinese ones after a comma or a space.
	for _, sep := range []string{",", "，", " "} {
		i := strings.LastIndex(l, sep)
		if i <= 0 {
			continue
		}
		w := strings.TrimSpace(l[i+len(sep):])
		if on, ok := stateWords[w]; ok && len([]rune(w)) > 1 && (sep != " " || cjk(w)) {
			return strings.TrimRight(l[:i], trailingMarks+" "), b2i(on)
		}
	}
	for _, x := range stateSuffixes {
		if base, ok := strings.CutSuffix(l, x.s); ok && base != "" {
			return strings.TrimRight(base, trailingMarks+" "), b2i(x.on)
		}
	}
	return l, state
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sameLabel reports whether a screen's text is the label a check names:
// the same words, or the names skins give one switch (a check's "Wi-Fi"
// is MIUI's "WLAN" row, its "Airplane mode" One UI's "Flight mode" and
// MIUI's "飞行模式"). Whole labels only: "WLAN 热点" is not Wi-Fi.
func sameLabel(shown, want string) bool {
	s, _ := labelForm(shown)
	w, _ := labelForm(want)
	return s != "" && (s == w || skinName(s) == skinName(w))
}

// skinNames are the names vendor skins give a setting, each to the name a
// Pixel gives it: MIUI's WLAN, 蓝牙, 飞行模式 and 亮度, One UI's Flight
// mode.
var skinNames = map[string]string{
	"wlan": "wi-fi", "wifi": "wi-fi", "蓝牙": "bluetooth",
	"flight mode": "airplane mode", "aeroplane mode": "airplane mode", "飞行模式": "airplane mode",
	"亮度": "brightness",
}

func skinName(l string) string {
	if n, ok := skinNames[l]; ok {
		return n
	}
	return l
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 0x7f {
			return false
		}
	}
	return true
}

// cjk reports whether a word is written in Chinese, Japanese or Korean.
func cjk(w string) bool {
	for _, r := range w {
		return isCJK(r)
	}
	return false
}

// tileName is the name a Quick Settings tile's description starts with
// when it says more than its name and state, and the state it says
// ("Wi-Fi,Tayrron,Se habilitó,Señal de Wi-Fi excelente": the Wi-Fi tile,
// on, connected to Tayrron); "" and -1 when it says no state after its
// name.
func tileName(desc string) (string, int) {
	parts := strings.FieldsFunc(norm(desc), func(r rune) bool { return r == ',' || r == '，' })
	if len(parts) < 2 {
		return "", -1
	}
	for _, p := range parts[1:] {
		if on, ok := stateWords[strings.TrimRight(strings.TrimSpace(p), trailingMarks+" ")]; ok {
			name, _ := labelForm(parts[0])
			return name, b2i(on)
		}
	}
	return "", -1
}
