package leaderelection

import (
	"context"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// tryAcquireOrRenew makes one attempt to take or keep the lease, as
// client-go's does: create it if missing; leave it alone if another holds
// it and its record changed less than LeaseDuration ago on our clock;
// else write ourselves in, guarded by the resourceVersion we read.
func (le *LeaderElector) tryAcquireOrRenew(ctx context.Context) bool {
	now := time.Now()
	got, err := le.cfg.Client.Get(ctx, le.cfg.Name, meta.GetOptions{})
	if meta.IsNotFound(err) {
		l := le.newLease(now)
		created, err := le.cfg.Client.Create(ctx, l, meta.CreateOptions{})
		if lease, ok := created.(*builtin.Lease); err == nil && ok {
			le.observe(lease, now)
			return true
		}
		return false
	}
	lease, ok := got.(*builtin.Lease)
	if err != nil || !ok {
		return false
	}
	le.observe(lease, now)
	holder := deref(lease.Spec.HolderIdentity)
	le.mu.Lock()
	expires := le.observedTime.Add(le.cfg.LeaseDuration)
	le.mu.Unlock()
	if holder != "" && holder != le.cfg.Identity && now.Before(expires) {
		return false
	}
	next := lease.DeepCopyObject().(*builtin.Lease)
	le.fill(&next.Spec, lease.Spec, now, false)
	updated, err := le.cfg.Client.Update(ctx, next, meta.UpdateOptions{})
	if lease, ok := updated.(*builtin.Lease); err == nil && ok {
		le.observe(lease, now)
		return true
	}
	return false
}

// newLease is the lease this candidate creates.
func (le *LeaderElector) newLease(now time.Time) *builtin.Lease {
	l := &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: le.cfg.Namespace, Name: le.cfg.Name}}
	le.fill(&l.Spec, builtin.LeaseSpec{}, now, true)
	return l
}

// fill writes this candidate in as holder, renewed now. acquireTime and
// leaseTransitions move on only when the holder changes (from nobody
// too, as in client-go), and a new lease starts at 0 transitions.
func (le *LeaderElector) fill(s *builtin.LeaseSpec, old builtin.LeaseSpec, now time.Time, isNew bool) {
	at := builtin.NewMicroTime(now)
	transitions := deref(old.LeaseTransitions)
	acquired := old.AcquireTime
	if deref(old.HolderIdentity) != le.cfg.Identity {
		acquired = &at
		if !isNew {
			transitions++
		}
	}
	secs := int32(le.cfg.LeaseDuration / time.Second)
	s.HolderIdentity, s.LeaseDurationSeconds = &le.cfg.Identity, &secs
	s.AcquireTime, s.RenewTime, s.LeaseTransitions = acquired, &at, &transitions
}

// observe records what the lease says, and when it last changed on our
// clock.
func (le *LeaderElector) observe(l *builtin.Lease, now time.Time) {
	le.mu.Lock()
	if l.ResourceVersion != le.observedRV {
		le.observed, le.observedRV, le.observedTime = l.Spec, l.ResourceVersion, now
	}
	holder := deref(l.Spec.HolderIdentity)
	changed := holder != le.leader
	le.leader = holder
	le.mu.Unlock()
	if changed && holder != "" && le.cfg.Callbacks.OnNewLeader != nil {
		le.cfg.Callbacks.OnNewLeader(holder)
	}
}

// release clears the holder, if it is still us, so that a successor
// need not wait out the lease.
func (le *LeaderElector) release() {
	ctx, cancel := context.WithTimeout(context.Background(), le.cfg.RenewDeadline)
	defer cancel()
	got, err := le.cfg.Client.Get(ctx, le.cfg.Name, meta.GetOptions{})
	l, ok := got.(*builtin.Lease)
	if err != nil || !ok || deref(l.Spec.HolderIdentity) != le.cfg.Identity {
		return
	}
	now := builtin.NewMicroTime(time.Now())
	one, empty := int32(1), ""
	l.Spec.HolderIdentity, l.Spec.LeaseDurationSeconds = &empty, &one
	l.Spec.RenewTime, l.Spec.AcquireTime = &now, &now
	if updated, err := le.cfg.Client.Update(ctx, l, meta.UpdateOptions{}); err == nil {
		if lease, ok := updated.(*builtin.Lease); ok {
			le.observe(lease, time.Now())
		}
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
