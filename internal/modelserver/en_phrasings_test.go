package modelserver

import "testing"

// A condition on a switch's state is not an action: "If Wi-Fi is off, turn
// it on" once planned "Turn off Wi-Fi" and then an unchecked "Turn it on".
// When the action sets the very switch the condition is about, the action
// alone is right whatever the switch shows (its check holds either way);
// a condition on something else is asked about, never guessed.
func TestConditionalOnASwitchIsNotAnAction(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"If Wi-Fi is off, turn it on", `Turn on Wi-Fi ⟨switch "Wi-Fi" is on⟩`},
		{"If Bluetooth is on, turn it off", `Turn off Bluetooth ⟨switch "Bluetooth" is off⟩`},
		{"if airplane mode is on, switch it off please", `Turn off Airplane mode ⟨switch "Airplane mode" is off⟩`},
		{"Turn Bluetooth on if it's off", `Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`},
		{"In case wifi is disabled, enable it", `Turn on Wi-Fi ⟨switch "Wi-Fi" is on⟩`},
		{"If Wi-Fi is on, turn on Bluetooth", "ask"},
		{"Tell Bob Li I'll come if it rains", `Send Bob Li a message: I'll come if it rains ⟨last message sent to "Bob Li" contains "I'll come if it rains"⟩`},
	})
}

// "it" after a clause about a switch is that switch: "Check Bluetooth and
// turn it on" once planned an unchecked "Turn it on".
func TestSwitchPronounIsTheSwitchBefore(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Check whether Bluetooth is on and turn it on", `Read the state of the Bluetooth switch ⟨the answer is the on/off state of "Bluetooth" seen on a screen⟩ | Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`},
		{"Open Settings, then switch it off", "Open Settings ⟨Settings is in front⟩ | ask"},
	})
}

// "Text X …" names the person first, and only a known contact or a run of
// capitalised words is the person: "Text Mom what Zhang San's last message
// said" once sent "Zhang San's last message said" to "Mom what".
func TestTextPersonThenWordsFindsThePerson(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Text Mom what Zhang San's last message said", `Read the latest message from Zhang San in Messages ⟨the answer is a label seen on a screen⟩ | Send Mom a message with what was read ⟨⟩`},
		{"Text Mom Alice Chen's number", `Read Alice Chen's phone number in Contacts ⟨the answer is a phone seen on a screen⟩ | Send Mom a message with what was read ⟨⟩`},
		{"text bob li ok", `Send Bob Li a message: ok ⟨last message sent to "Bob Li" contains "ok"⟩`},
		{"Text Dana Park running late", `Send Dana Park a message: running late ⟨last message sent to "Dana Park" contains "running late"⟩`},
	})
}

// Words said to the phone's user before the request ("Hey,", "Hi there,",
// "OK so") are not part of it: "Hey, can you let Mom know I landed
// safely?" once went to the executor whole, with no check.
func TestGreetingBeforeTheRequest(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Hey, can you let Mom know I landed safely?", `Send Mom a message: I landed safely ⟨last message sent to "Mom" contains "I landed safely"⟩`},
		{"hi there, please turn on bluetooth", `Turn on Bluetooth ⟨switch "Bluetooth" is on⟩`},
		{"OK so, turn off Wi-Fi", `Turn off Wi-Fi ⟨switch "Wi-Fi" is off⟩`},
	})
}

// A place in a list said as a superlative: alarms are listed by time and
// notes in the order written, so the earliest alarm is the first and the
// latest note the last. "What time is my earliest alarm?" once read the
// alarm labelled "earliest".
func TestSuperlativeIsAPlaceInTheList(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"what time is my earliest alarm?", `Read the time of the first alarm in Clock ⟨the answer is time #1 seen on a screen⟩`},
		{"What's the title of my latest note?", `Read the title of the last note in Notes ⟨the answer is the last label seen on a screen⟩`},
		{"Turn off my latest alarm", `Read the time of the last alarm in Clock ⟨the answer is the last time seen on a screen⟩ | Turn off the existing alarm at the time read (the last alarm) ⟨⟩`},
	})
}

// A small change of brightness said loosely ("a bit", "a little",
// "slightly") is one step of the control, checked on the level it ends at:
// the level is read first, and the step is written with its check once
// known. "Make the screen a bit brighter" was once asked about.
func TestLooseAmountIsOneStep(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Make the screen a bit brighter", "Read the brightness in Settings ⟨the answer is a number seen on a screen⟩ | Set brightness 10 points above what was read (one step) ⟨⟩"},
		{"Turn the brightness down a little", "Read the brightness in Settings ⟨the answer is a number seen on a screen⟩ | Set brightness 10 points below what was read (one step) ⟨⟩"},
	})
}

// "a (quick) note to X: …" sent to a person is a message, not a Notes note.
func TestNoteToAPersonIsAMessage(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Send a quick note to Bob Li: the slides look great", `Send Bob Li a message: the slides look great ⟨last message sent to "Bob Li" contains "the slides look great"⟩`},
		{"Send a short note to Alice Chen: see you soon", `Send Alice Chen a message: see you soon ⟨last message sent to "Alice Chen" contains "see you soon"⟩`},
		{"Drop Mom a line: home by 9", `Send Mom a message: home by 9 ⟨last message sent to "Mom" contains "home by 9"⟩`},
	})
}

// A reply to a message names its sender ("Bob Li's message"), or the
// newest conversation ("the most recent message", "whoever texted me
// last"), which is read first and checked once known.
func TestReplyNamesTheSender(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{"Reply to Bob Li's message with thanks", `Send Bob Li a message: thanks ⟨last message sent to "Bob Li" contains "thanks"⟩`},
		{"Reply to the most recent message saying thanks", `Read the name of the first conversation in Messages ⟨the answer is label #1 seen on a screen⟩ | Send what was read a message: thanks ⟨⟩`},
		{"Send a message to the last person who texted me saying got it", `Read the name of the first conversation in Messages ⟨the answer is label #1 seen on a screen⟩ | Send what was read a message: got it ⟨⟩`},
		{"Who sent me the most recent message?", `Read the name of the first conversation in Messages ⟨the answer is label #1 seen on a screen⟩`},
	})
}

// Politeness around a message's words is the request's, not the message's;
// a closing "thanks" after "with" or "saying" is the message. `text Bob Li
// saying "see you at 5", thanks` once sent `"see you at 5", thanks` and
// ended done; "Can you let Mom know I landed?" sent "I landed?".
func TestPolitenessAroundTheWords(t *testing.T) {
	checkReadings(t, []struct{ goal, want string }{
		{`Please text Bob Li saying "see you at 5", thanks`, `Send Bob Li a message: see you at 5 ⟨last message sent to "Bob Li" contains "see you at 5"⟩`},
		{"Text Mom saying thank you", `Send Mom a message: thank you ⟨last message sent to "Mom" contains "thank you"⟩`},
		{"Can you let Mom know I landed safely?", `Send Mom a message: I landed safely ⟨last message sent to "Mom" contains "I landed safely"⟩`},
		{"Can you text Bob: are you there?", `Send Bob a message: are you there? ⟨last message sent to "Bob" contains "are you there?"⟩`},
		{"text Alice saying “你好”，我到了", `Send Alice a message: “你好”，我到了 ⟨last message sent to "Alice" contains "“你好”，我到了"⟩`},
	})
}
