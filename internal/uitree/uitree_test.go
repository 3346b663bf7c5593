package uitree

import (
	"bytes"
	"reflect"
	"testing"
)

const dump = `UI hierchary dumped to: /dev/tty
<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="Wi-Fi" resource-id="com.android.settings:id/wifi_switch" class="android.widget.Switch" package="com.android.settings" content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,200][1080,400]" /><node index="1" text="张三 &quot;Zhang&quot;" resource-id="" class="android.widget.TextView" package="com.android.settings" content-desc="contact" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,400][540,600]" /></node></hierarchy>`

func TestParseXML(t *testing.T) {
	got, err := ParseXML([]byte(dump))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d elements, want 3", len(got))
	}
	wifi := got[1]
	if wifi.Text != "Wi-Fi" || !wifi.Checked || !wifi.Checkable || wifi.ShortID() != "wifi_switch" ||
		wifi.Bounds != (Bounds{0, 200, 1080, 400}) || wifi.Depth != 1 || wifi.ShortClass() != "Switch" {
		t.Fatalf("wifi element parsed wrong: %+v", wifi)
	}
	if got[2].Text != `张三 "Zhang"` || got[2].Desc != "contact" {
		t.Fatalf("text element parsed wrong: %+v", got[2])
	}
}

func TestParseXMLErrors(t *testing.T) {
	if _, err := ParseXML([]byte("ERROR: could not get idle state.")); err != ErrNoHierarchy {
		t.Fatalf("err = %v, want ErrNoHierarchy", err)
	}
	if _, err := ParseXML([]byte(`<hierarchy><node bounds="[0,0][1,1]"><node></hierarchy>`)); err == nil {
		t.Fatal("want error for broken xml")
	}
}

func TestWriteXMLRoundTrip(t *testing.T) {
	in, err := ParseXML([]byte(dump))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteXML(&buf, 0, in); err != nil {
		t.Fatal(err)
	}
	out, err := ParseXML(buf.Bytes())
	if err != nil {
		t.Fatalf("reparse: %v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip changed elements:\n in=%+v\nout=%+v", in, out)
	}
}

func TestRelativePixel(t *testing.T) {
	for _, c := range []struct{ px, size, rel int }{{0, 1080, 0}, {540, 1080, 500}, {1079, 1080, 999}, {2400, 2400, 999}, {-5, 100, 0}} {
		if got := Relative(c.px, c.size); got != c.rel {
			t.Errorf("Relative(%d,%d) = %d, want %d", c.px, c.size, got, c.rel)
		}
	}
	if got := Pixel(500, 1080); got != 540 {
		t.Errorf("Pixel(500,1080) = %d, want 540", got)
	}
	if got := Pixel(1500, 1080); got != 1078 {
		t.Errorf("Pixel clamps: got %d, want 1078", got)
	}
}

func TestFormatParseList(t *testing.T) {
	elems, _ := ParseXML([]byte(dump))
	text := "Task: turn wifi off\n" + FormatList(elems, 1080, 2400) + "\n\nPrevious action result: ok"
	got := ParseList(text)
	want := []Listed{
		{Index: 1, Class: "Switch", Text: "Wi-Fi", ID: "wifi_switch", Checkable: true, Checked: true, Clickable: true, At: [2]int{500, 125}},
		{Index: 2, Class: "TextView", Text: `张三 "Zhang"`, Desc: "contact", At: [2]int{250, 208}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseList:\n got %+v\nwant %+v\ntext:\n%s", got, want, text)
	}
	if ParseList("no list here") != nil {
		t.Fatal("ParseList without header should be nil")
	}
}

func FuzzParseLine(f *testing.F) {
	f.Add(`[1] Switch "Wi-Fi" id=wifi checked=true clickable at=[500,125]`)
	f.Add(`[2] View "" desc="a \"b\"" at=[1,2]`)
	f.Fuzz(func(t *testing.T, s string) {
		l, ok := ParseLine(s)
		if !ok {
			return
		}
		again, ok2 := ParseLine(l.String())
		if !ok2 {
			t.Fatalf("reformatted line does not parse: %q", l.String())
		}
		if again.Text != l.Text || again.At != l.At {
			t.Fatalf("round trip changed: %+v vs %+v", l, again)
		}
	})
}
