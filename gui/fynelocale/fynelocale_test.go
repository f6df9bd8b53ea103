package fynelocale

import "testing"

func TestCLike(t *testing.T) {
	tests := []struct {
		loc  string
		want bool
	}{
		{"C", true}, {"C.UTF-8", true}, {"C.utf8", true}, {"POSIX", true}, {"POSIX@euro", true},
		{"", false}, {"en_US.UTF-8", false}, {"zh_CN.GBK", false}, {"Ca", false}, {"de_DE@euro", false},
	}
	for _, tt := range tests {
		if got := cLike(tt.loc); got != tt.want {
			t.Errorf("cLike(%q) = %v, want %v", tt.loc, got, tt.want)
		}
	}
}
