// The supervisor's I/O helpers (see supervisor-perl.ts): the log writer, the stdin
// pump, and the end of a container's leftover processes. Appended to the script,
// so they share its file-scoped variables ($clock, $PARTIAL_MAX, %opt, @procs).

export const SUPERVISOR_PERL_IO = String.raw`# Turns the command's output into log entries: whole lines, lines past 16 KiB cut
# into fragments, and a partial line (a prompt) written once its stream is quiet.
sub log_writer {
  my ($dir, $maxlog) = @_;
  my $path = "$dir/container.log";
  open(my $log, '>>', $path) or die "open $path: $!\n";
  my $size = -s $path // 0;
  my %buf = (stdout => '', stderr => '');
  my %last = (stdout => 0, stderr => 0);
  my $emit = sub {
    my ($stream, $tag, $content) = @_;
    my $line = iso($clock->()) . " $stream $tag $content\n";
    syswrite($log, $line);
    $size += length $line;
    return if $size <= $maxlog;
    close $log;
    rename($path, "$path.1");
    open($log, '>>', $path) or die "reopen $path: $!\n";
    $size = 0;
  };
  my $consume = sub {
    my ($s, $force) = @_;
    while ((my $i = index($buf{$s}, "\n")) >= 0) {
      $emit->($s, 'F', substr($buf{$s}, 0, $i));
      substr($buf{$s}, 0, $i + 1) = '';
    }
    while (length($buf{$s}) >= $PARTIAL_MAX) { $emit->($s, 'P', substr($buf{$s}, 0, $PARTIAL_MAX, '')) }
    if ($force && length $buf{$s}) { $emit->($s, 'P', $buf{$s}); $buf{$s} = '' }
  };
  return {
    add => sub { my ($s, $data) = @_; $buf{$s} .= $data; $last{$s} = $clock->(); $consume->($s, 0) },
    eof => sub { $consume->($_[0], 1) },
    pending => sub { return scalar grep { length $buf{$_} } keys %buf },
    idle => sub {
      for my $s (keys %buf) { $consume->($s, 1) if length $buf{$s} && $clock->() - $last{$s} >= 0.05 }
    },
    close => sub { $consume->($_, 1) for keys %buf; close $log },
  };
}

# Without a pid namespace nothing ends a container's other processes when its main
# one dies; do it here, while the zombie still holds the process group's id.
sub kill_rest {
  my ($pid) = @_;
  kill('-KILL', $pid);
  for my $round (1 .. 100) {
    my @pids;
    for my $p (@procs) {
      open(my $fh, '<', $p) or next;
      @pids = grep { /^\d+$/ && $_ != $pid } map { chomp; $_ } <$fh>;
      close $fh;
      last;
    }
    last unless @pids;
    kill('KILL', @pids);
    select(undef, undef, undef, 0.01);
  }
}

sub oom_counters {
  my ($memcg) = @_;
  return (-1, -1) unless $memcg;
  my ($ooms, $failcnt) = (-1, -1);
  for my $f ("$memcg/memory.events", "$memcg/memory.oom_control") {
    open(my $fh, '<', $f) or next;
    while (<$fh>) { $ooms = $1 if /^oom_kill (\d+)/ }
    close $fh;
    last;
  }
  if (open(my $fh, '<', "$memcg/memory.failcnt")) { $failcnt = (<$fh> // -1) + 0; close $fh }
  return ($ooms, $failcnt);
}

# The container's stdin is a pipe fed from the FIFO attach writes to. On the FIFO's
# EOF (the attached client left) the pipe is closed when stdinOnce, else the FIFO is
# reopened so that the next client can write.
sub stdin_pump {
  my ($dir, $in_w) = @_;
  my $noop = { arm => sub { }, service => sub { }, close => sub { } };
  return $noop unless $in_w;
  my $fl = fcntl($in_w, F_GETFL, 0);
  fcntl($in_w, F_SETFL, $fl | O_NONBLOCK);
  my ($fifo, $pending, $eof) = (undef, '', 0);
  my $reopen = sub {
    close $fifo if $fifo;
    sysopen($fifo, "$dir/stdin", O_RDONLY | O_NONBLOCK) or undef $fifo;
  };
  $reopen->();
  my $close = sub { close $fifo if $fifo; undef $fifo; close $in_w if $in_w; undef $in_w };
  return {
    close => $close,
    arm => sub {
      my ($rin, $win) = @_;
      vec($$rin, fileno($fifo), 1) = 1 if $fifo && length($pending) < 1 << 20;
      vec($$win, fileno($in_w), 1) = 1 if $in_w && length $pending;
    },
    service => sub {
      my ($rout, $wout) = @_;
      if ($fifo && vec($rout, fileno($fifo), 1)) {
        my $r = sysread($fifo, my $data, 65536);
        if ($r) { $pending .= $data if $in_w }
        elsif (defined $r) { $opt{once} ? do { close $fifo; undef $fifo; $eof = 1 } : $reopen->() }
      }
      if ($in_w && length $pending && vec($wout, fileno($in_w), 1)) {
        my $w = syswrite($in_w, $pending);
        if (defined $w) { substr($pending, 0, $w) = '' }
        elsif (!$!{EAGAIN}) { $pending = ''; close $in_w; undef $in_w }
      }
      if ($eof && $in_w && !length $pending) { close $in_w; undef $in_w }
    },
  };
}
`;
