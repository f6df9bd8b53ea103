package crawl

import "testing"

func TestEventLog(t *testing.T) {
	var l eventLog
	if got := l.since(0); len(got) != 0 {
		t.Fatalf("empty log gave %d events", len(got))
	}
	for i := range eventLogSize + 10 {
		l.add(Event{Status: i})
	}
	all := l.since(0)
	if len(all) != eventLogSize || all[0].Seq != 11 || all[len(all)-1].Seq != eventLogSize+10 {
		t.Fatalf("kept %d events, seq %d..%d", len(all), all[0].Seq, all[len(all)-1].Seq)
	}
	tail := l.since(eventLogSize + 7)
	if len(tail) != 3 || tail[0].Seq != eventLogSize+8 || tail[0].Status != eventLogSize+7 {
		t.Fatalf("tail %+v", tail)
	}
	if got := l.since(eventLogSize + 10); len(got) != 0 {
		t.Fatalf("nothing new, got %d", len(got))
	}
}
