package device

import (
	"reflect"
	"testing"

	"github.com/phoneflow/phoneflow/internal/adb"
)

func TestDedupeEmulatorAliases(t *testing.T) {
	devs := []adb.DeviceInfo{
		{Serial: "127.0.0.1:5555", State: "device"},
		{Serial: "emulator-5554", State: "device"}, // the same phone, found by adb's emulator probe
		{Serial: "emulator-5556", State: "device"}, // a real emulator
		{Serial: "R58M12ABC", State: "device"},
		{Serial: "192.168.1.7:5559", State: "device"},
		{Serial: "emulator-5558", State: "device"}, // not local: kept
	}
	var got []string
	for _, d := range dedupeEmulatorAliases(devs) {
		got = append(got, d.Serial)
	}
	want := []string{"127.0.0.1:5555", "emulator-5556", "R58M12ABC", "192.168.1.7:5559", "emulator-5558"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
