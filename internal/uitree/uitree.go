package uitree

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Bounds is an element's rectangle in screen pixels, [X1,Y1][X2,Y2] as
// uiautomator writes it (X2/Y2 exclusive).
type Bounds struct {
	X1, Y1, X2, Y2 int
}

// Center returns the pixel at the middle of b.
func (b Bounds) Center() (x, y int) { return (b.X1 + b.X2) / 2, (b.Y1 + b.Y2) / 2 }

// Contains reports whether pixel (x, y) lies inside b.
func (b Bounds) Contains(x, y int) bool { return x >= b.X1 && x < b.X2 && y >= b.Y1 && y < b.Y2 }

// String formats b the way uiautomator does: "[x1,y1][x2,y2]".
func (b Bounds) String() string { return fmt.Sprintf("[%d,%d][%d,%d]", b.X1, b.Y1, b.X2, b.Y2) }

var boundsRe = regexp.MustCompile(`^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$`)

// ParseBounds parses "[x1,y1][x2,y2]".
func ParseBounds(s string) (Bounds, error) {
	m := boundsRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Bounds{}, fmt.Errorf("uitree: bad bounds %q, want [x1,y1][x2,y2]", s)
	}
	var v [4]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return Bounds{v[0], v[1], v[2], v[3]}, nil
}

// Element is one node of a uiautomator dump.
type Element struct {
	Class      string `json:"class,omitempty"` // e.g. android.widget.Button
	Package    string `json:"package,omitempty"`
	Text       string `json:"text,omitempty"`
	Desc       string `json:"desc,omitempty"` // content-desc
	Hint       string `json:"hint,omitempty"` // an input's hint, where the dump says it (newer dumps)
	ResourceID string `json:"resource_id,omitempty"`
	Bounds     Bounds `json:"bounds"`
	Clickable  bool   `json:"clickable,omitempty"`
	Checkable  bool   `json:"checkable,omitempty"`
	Checked    bool   `json:"checked,omitempty"`
	Enabled    bool   `json:"enabled,omitempty"`
	Focused    bool   `json:"focused,omitempty"`
	Scrollable bool   `json:"scrollable,omitempty"`
	Selected   bool   `json:"selected,omitempty"`
	Password   bool   `json:"password,omitempty"`
	Depth      int    `json:"depth,omitempty"` // nesting depth in the dump, root = 0
}

// ShortClass returns the class name without its package ("Button").
func (e Element) ShortClass() string {
	if i := strings.LastIndexByte(e.Class, '.'); i >= 0 {
		return e.Class[i+1:]
	}
	return e.Class
}

// ShortID returns the resource id without its "package:id/" prefix.
func (e Element) ShortID() string {
	if i := strings.Index(e.ResourceID, ":id/"); i >= 0 {
		return e.ResourceID[i+4:]
	}
	return e.ResourceID
}

// ErrNoHierarchy is returned when the input holds no <hierarchy> element,
// as when uiautomator printed an error instead of a dump.
var ErrNoHierarchy = errors.New("uitree: no <hierarchy> in uiautomator output")

// ParseXML parses a uiautomator dump into its nodes in document order.
// Leading or trailing noise (such as "UI hierchary dumped to: /dev/tty")
// is ignored.
func ParseXML(data []byte) ([]Element, error) {
	start := bytes.Index(data, []byte("<hierarchy"))
	if start < 0 {
		return nil, ErrNoHierarchy
	}
	if end := bytes.LastIndex(data, []byte("</hierarchy>")); end > start {
		data = data[start : end+len("</hierarchy>")]
	} else {
		data = data[start:]
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var out []Element
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, fmt.Errorf("uitree: bad uiautomator xml: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "node" {
				depth++
				out = append(out, elementFromAttrs(t.Attr, depth-1))
			}
		case xml.EndElement:
			if t.Name.Local == "node" {
				depth--
			}
		}
	}
	return out, nil
}

func elementFromAttrs(attrs []xml.Attr, depth int) Element {
	e := Element{Depth: depth}
	for _, a := range attrs {
		v := a.Value
		switch a.Name.Local {
		case "class":
			e.Class = v
		case "package":
			e.Package = v
		case "text":
			e.Text = v
		case "content-desc":
			e.Desc = v
		case "hint":
			e.Hint = v
		case "resource-id":
			e.ResourceID = v
		case "bounds":
			e.Bounds, _ = ParseBounds(v)
		case "clickable":
			e.Clickable = v == "true"
		case "checkable":
			e.Checkable = v == "true"
		case "checked":
			e.Checked = v == "true"
		case "enabled":
			e.Enabled = v == "true"
		case "focused":
			e.Focused = v == "true"
		case "scrollable":
			e.Scrollable = v == "true"
		case "selected":
			e.Selected = v == "true"
		case "password":
			e.Password = v == "true"
		}
	}
	return e
}

// WriteXML writes elements as a uiautomator dump. Nesting follows each
// element's Depth (an element is a child of the nearest preceding element
// with a smaller depth), so the output of ParseXML round-trips.
func WriteXML(w io.Writer, rotation int, elems []Element) error {
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>`)
	fmt.Fprintf(&b, `<hierarchy rotation="%d">`, rotation)
	var stack []int // depths of open nodes
	for i, e := range elems {
		for len(stack) > 0 && stack[len(stack)-1] >= e.Depth {
			b.WriteString("</node>")
			stack = stack[:len(stack)-1]
		}
		fmt.Fprintf(&b, `<node index="%d" text="%s" resource-id="%s" class="%s" package="%s" content-desc="%s" checkable="%t" checked="%t" clickable="%t" enabled="%t" focusable="%t" focused="%t" scrollable="%t" long-clickable="false" password="%t" selected="%t" bounds="%s">`,
			i, esc(e.Text), esc(e.ResourceID), esc(e.Class), esc(e.Package), esc(e.Desc),
			e.Checkable, e.Checked, e.Clickable, e.Enabled, e.Clickable, e.Focused, e.Scrollable,
			e.Password, e.Selected, e.Bounds)
		if e.Hint != "" {
			s := b.String()
			b.Reset()
			b.WriteString(strings.TrimSuffix(s, ">"))
			fmt.Fprintf(&b, ` hint="%s">`, esc(e.Hint))
		}
		stack = append(stack, e.Depth)
	}
	for range stack {
		b.WriteString("</node>")
	}
	b.WriteString("</hierarchy>")
	_, err := io.WriteString(w, b.String())
	return err
}

func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&quot;")
}
