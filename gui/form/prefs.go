package form

import (
	"encoding/json"
)

// Prefs is the part of fyne.Preferences the form needs, so the form can be
// remembered without a window.
type Prefs interface {
	String(key string) string
	SetString(key, value string)
}

// PrefsKey is the preference under which the last form is kept.
const PrefsKey = "newcrawl.fields"

// Load returns the form as last saved, or the defaults when nothing (or
// nothing readable) was saved. Fields missing from an older save keep
// their defaults.
func Load(p Prefs) Fields {
	f := Defaults()
	raw := p.String(PrefsKey)
	if raw == "" {
		return f
	}
	saved := f
	if err := json.Unmarshal([]byte(raw), &saved); err != nil {
		return f
	}
	return saved
}

// Save remembers the form for the next run. Passwords are left out.
func Save(p Prefs, f Fields) {
	b, err := json.Marshal(f) // Auth.Password is tagged "-"
	if err != nil {
		return
	}
	p.SetString(PrefsKey, string(b))
}
