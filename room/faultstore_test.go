package room

import (
	"context"
	"fmt"
	"sync"
)

// faultStore is a MemStore with failure injection: Fail makes every call fail with
// ErrStoreUnavailable until Fail(nil); FailAppends(n) fails the next n appends;
// LoseAcks(n) lets the next n appends write but report a failure (a reply lost with
// the connection); OnAppend runs before each append (under the store's lock: keep it
// short). Appends counts the appends that wrote.
type faultStore struct {
	*MemStore
	OnAppend func(id string, expectedSeq uint64, events []Event)

	mu          sync.Mutex
	failAll     error
	failAppends int
	loseAcks    int
	appends     int
}

func newFaultStore() *faultStore { return &faultStore{MemStore: NewMemStore()} }

// Fail makes every call fail with err wrapped in ErrStoreUnavailable (nil: heal).
func (f *faultStore) Fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failAll = err
}

// FailAppends makes the next n appends fail with ErrStoreUnavailable.
func (f *faultStore) FailAppends(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failAppends = n
}

// LoseAcks makes the next n appends write their events but report ErrStoreUnavailable.
func (f *faultStore) LoseAcks(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loseAcks = n
}

// Appends returns how many appends wrote.
func (f *faultStore) Appends() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.appends
}

func (f *faultStore) down() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failAll != nil {
		return fmt.Errorf("%w: %v", ErrStoreUnavailable, f.failAll)
	}
	return nil
}

func (f *faultStore) Create(ctx context.Context, id string, first Event, sum Summary) error {
	if err := f.down(); err != nil {
		return err
	}
	return f.MemStore.Create(ctx, id, first, sum)
}

func (f *faultStore) Append(ctx context.Context, id string, expectedSeq uint64, events []Event, sum Summary) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.OnAppend != nil {
		f.OnAppend(id, expectedSeq, events)
	}
	if f.failAll != nil {
		return fmt.Errorf("%w: %v", ErrStoreUnavailable, f.failAll)
	}
	if f.failAppends > 0 {
		f.failAppends--
		return fmt.Errorf("%w: injected append failure", ErrStoreUnavailable)
	}
	if err := f.MemStore.Append(ctx, id, expectedSeq, events, sum); err != nil {
		return err
	}
	f.appends++
	if f.loseAcks > 0 {
		f.loseAcks--
		return fmt.Errorf("%w: injected lost reply (written)", ErrStoreUnavailable)
	}
	return nil
}

func (f *faultStore) Events(ctx context.Context, id string, fromSeq uint64) ([]Event, error) {
	if err := f.down(); err != nil {
		return nil, err
	}
	return f.MemStore.Events(ctx, id, fromSeq)
}

func (f *faultStore) List(ctx context.Context, q ListQuery) ([]Summary, string, error) {
	if err := f.down(); err != nil {
		return nil, "", err
	}
	return f.MemStore.List(ctx, q)
}
