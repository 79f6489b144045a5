// The supervisor every container process runs under, and the exec helper, in one
// perl script (mode "run" or "exec"). Installed into stateDir/bin by supervisor.ts.
//
// Why a separate process: the container must outlive the agent (an agent restart
// adopts it), so whatever holds its pipes and reaps it cannot be the agent.
// Why perl: it has to stamp every log line with the time, forward signals, reap the
// command and record 128+signal, kill what the command left behind, and pump a FIFO
// into stdin. A POSIX shell stamps lines only with a fork per line, cannot pump
// without blocking, ignores SIGINT in background jobs and cannot tell a `wait` cut
// short by a trap from an exit; node would cost ~40 MB per container. perl takes a
// few MB and is on every Debian-family system (perl-base is Essential); only POSIX,
// Fcntl and, if present, Time::HiRes (for sub-second timestamps) are used.
//
// The log format is the kubelet's (CRI): "<RFC3339Nano> <stdout|stderr> <F|P> <text>",
// P marking a fragment of a line that continues in the next entry of the stream.

import { SUPERVISOR_PERL_IO } from './supervisor-perl-io.js';

const MAIN = String.raw`
# Drover process runtime: per-container supervisor (run mode) and exec helper (exec mode).
# Why perl and not sh or node: see supervisor-perl.ts.
use strict;
use warnings;
use POSIX ();
use Fcntl qw(O_RDONLY O_NONBLOCK F_GETFL F_SETFL);

my $clock = eval { require Time::HiRes; \&Time::HiRes::time } || sub { time };
my @FORWARD = qw(TERM INT HUP QUIT USR1 USR2 WINCH ALRM CONT);
my $PARTIAL_MAX = 16384;

my ($mode, @rest) = @ARGV;
my (%opt, @procs);
while (@rest) {
  my $arg = shift @rest;
  last if $arg eq '--';
  my ($k, $v) = split /=/, $arg, 2;
  if ($k eq 'procs') { push @procs, $v } else { $opt{$k} = $v }
}
my @argv = @rest;
my %env = read_env();

if ($mode eq 'exec') { exec_mode() } elsif ($mode eq 'run') { run_mode() } else { die "unknown mode $mode\n" }

# The container's environment arrives NUL-separated on fd 3, so that nothing in it
# (PERL5OPT, PERL5LIB) can reach this interpreter.
sub read_env {
  open(my $fh, '<&=', 3) or return ();
  local $/;
  my $blob = <$fh> // '';
  close $fh;
  my %e;
  for my $kv (split /\0/, $blob) {
    my ($k, $v) = split /=/, $kv, 2;
    $e{$k} = $v // '' if defined $k && $k ne '';
  }
  return %e;
}

sub iso {
  my ($t) = @_;
  my $s = int($t);
  my $us = int(($t - $s) * 1e6);
  return POSIX::strftime('%Y-%m-%dT%H:%M:%S', gmtime($s)) . sprintf('.%06d000Z', $us);
}

sub jstr {
  my ($s) = @_;
  $s =~ s/(["\\])/\\$1/g;
  $s =~ s/([\x00-\x1f])/sprintf('\\u%04x', ord $1)/ge;
  return "\"$s\"";
}

# Written whole or not at all: the runtime may read it at any moment, and after an
# agent restart it is the only record of the run.
sub write_json {
  my ($path, @pairs) = @_;
  my @parts;
  while (@pairs) {
    my ($k, $v) = splice(@pairs, 0, 2);
    push @parts, jstr($k) . ':' . ($v =~ /^-?\d+$/ ? $v : jstr($v));
  }
  open(my $fh, '>', "$path.tmp") or return;
  print $fh '{' . join(',', @parts) . "}\n";
  close $fh;
  rename("$path.tmp", $path);
}

sub start_ticks {
  my ($pid) = @_;
  open(my $fh, '<', "/proc/$pid/stat") or return 0;
  my $line = <$fh> // '';
  close $fh;
  $line =~ s/^.*\)\s+//s;
  my @f = split /\s+/, $line;
  return $f[19] // 0;
}

sub proc_state {
  my ($pid) = @_;
  open(my $fh, '<', "/proc/$pid/stat") or return '';
  my $line = <$fh> // '';
  close $fh;
  return $line =~ /\)\s+(\S)/ ? $1 : '';
}

sub resolve_user {
  my ($spec) = @_;
  my ($u, $g) = split /:/, $spec, 2;
  my ($uid, $gid, $name);
  if ($u =~ /^\d+$/) {
    $uid = $u;
    my @pw = getpwuid($uid);
    ($name, $gid) = @pw ? ($pw[0], $pw[3]) : (undef, 0);
  } else {
    my @pw = getpwnam($u) or die "unable to find user $u: no matching entries in passwd file\n";
    ($name, $uid, $gid) = @pw[0, 2, 3];
  }
  if (defined $g && $g ne '') {
    if ($g =~ /^\d+$/) { $gid = $g }
    else {
      my @gr = getgrnam($g) or die "unable to find group $g: no matching entries in group file\n";
      $gid = $gr[2];
    }
  }
  my @groups = ($gid);
  if (defined $name) {
    setgrent();
    while (my @gr = getgrent()) {
      push @groups, $gr[2] if grep { $_ eq $name } split / /, $gr[3];
    }
    endgrent();
  }
  return ($uid, $gid, @groups);
}

# Runs in the process that is about to exec the command: cgroups first (as root),
# then the user, then the directory (checked with the user's rights).
sub become {
  for my $p (@procs) {
    open(my $fh, '>', $p) or die "join cgroup $p: $!\n";
    print $fh "$$\n";
    close($fh) or die "join cgroup $p: $!\n";
  }
  if (defined $opt{user} && $opt{user} ne '') {
    my ($uid, $gid, @groups) = resolve_user($opt{user});
    $) = join(' ', $gid, $gid, @groups);
    POSIX::setgid($gid) or die "setgid $gid: $!\n";
    POSIX::setuid($uid) or die "setuid $uid: $!\n";
    die "could not switch to uid $uid\n" if $< != $uid || $> != $uid;
  }
  if (defined $opt{cwd} && $opt{cwd} ne '') {
    chdir($opt{cwd}) or die "chdir to working directory \"$opt{cwd}\": " . lc("$!") . "\n";
  }
  %ENV = %env;
  $SIG{$_} = 'DEFAULT' for (@FORWARD, 'PIPE', 'CHLD');
  POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new());
}

# Returns (exit code, message) when the command cannot be executed; shells use
# 127 for "not found" and 126 for "found but not executable".
sub exec_command {
  my $prog = $argv[0];
  { no warnings 'exec'; exec { $prog } @argv; }
  my $notfound = $!{ENOENT} || $!{ENOTDIR};
  my $msg = ($notfound && $prog !~ m{/})
    ? "exec: \"$prog\": executable file not found in \$PATH"
    : "exec: \"$prog\": " . lc("$!");
  return ($notfound ? 127 : 126, $msg);
}

sub exec_mode {
  my ($code, $msg) = (126, '');
  eval { become(); ($code, $msg) = exec_command(); 1 } or $msg = $@;
  chomp $msg;
  print STDERR "$msg\n";
  POSIX::_exit($code);
}

sub run_mode {
  my $dir = $opt{dir};
  pipe(my $err_r, my $err_w) or die "pipe: $!\n";
  pipe(my $out_r, my $out_w) or die "pipe: $!\n";
  pipe(my $eout_r, my $eout_w) or die "pipe: $!\n";
  my ($in_r, $in_w);
  if ($opt{stdin}) {
    pipe($in_r, $in_w) or die "pipe: $!\n";
    POSIX::mkfifo("$dir/stdin", 0600) or $!{EEXIST} or die "mkfifo: $!\n";
  }
  my $t0 = $clock->();
  my $pid = fork() // die "fork: $!\n";
  if ($pid == 0) {
    close $err_r; close $out_r; close $eout_r; close $in_w if $in_w;
    my ($code, $msg) = (126, '');
    eval {
      POSIX::setsid() or die "setsid: $!\n";
      if ($in_r) { open(STDIN, '<&', $in_r) or die "stdin: $!\n" }
      else { open(STDIN, '<', '/dev/null') or die "stdin: $!\n" }
      open(STDOUT, '>&', $out_w) or die "stdout: $!\n";
      open(STDERR, '>&', $eout_w) or die "stderr: $!\n";
      become();
      ($code, $msg) = exec_command();
      1;
    } or $msg = $@;
    chomp $msg;
    syswrite($err_w, "$code $msg");
    POSIX::_exit($code);
  }
  $SIG{PIPE} = 'IGNORE';
  forward_signals($pid);
  close $err_w; close $out_w; close $eout_w; close $in_r if $in_r;
  my $failure = '';
  # EOF means the command was executed (the pipe is close-on-exec); a signal
  # forwarded meanwhile must not cut the read short.
  while (1) {
    my $r = sysread($err_r, my $buf, 4096);
    if ($r) { $failure .= $buf; next }
    last if defined $r || !$!{EINTR};
  }
  close $err_r;
  if ($failure ne '') {
    waitpid($pid, 0);
    my ($code, $msg) = split / /, $failure, 2;
    write_json("$dir/exit.json", startFailed => 1, exitCode => $code, signal => 0, oomKills => 0,
      finishedAt => iso($clock->()), error => $msg);
    print STDOUT "err $msg\n";
    exit 0;
  }
  write_json("$dir/started.json", pid => $pid, pidStart => start_ticks($pid), supervisorPid => $$,
    supervisorStart => start_ticks($$), startedAt => iso($t0));
  syswrite(STDOUT, "ok $pid\n");
  open(STDOUT, '>', '/dev/null');
  open(STDERR, '>>', "$dir/supervisor.log");
  supervise($dir, $pid, $out_r, $eout_r, $in_w);
}

# From the fork on, signals to the supervisor go to the command. A handler only
# writes to the wake pipe, so a signal that lands just before select() still wakes it.
our ($WAKE_R, $ENDED);
sub forward_signals {
  my ($pid) = @_;
  pipe($WAKE_R, my $wake_w) or die "pipe: $!\n";
  fcntl($wake_w, F_SETFL, fcntl($wake_w, F_GETFL, 0) | O_NONBLOCK);
  $SIG{CHLD} = sub { syswrite($wake_w, 'c') };
  for my $sig (@FORWARD) {
    $SIG{$sig} = sub { kill($sig, $pid) unless $ENDED; syswrite($wake_w, 's') };
  }
}

sub supervise {
  my ($dir, $pid, $out_r, $eout_r, $in_w) = @_;
  my $log = log_writer($dir, $opt{maxlog} || 10 * 1024 * 1024);
  my %src = (stdout => $out_r, stderr => $eout_r);
  my $wake_r = $WAKE_R;
  my $status;
  my $stdin = stdin_pump($dir, $in_w);
  my ($reaped_at, $next_check) = (undef, 0);
  while (1) {
    if (!defined $status && $clock->() >= $next_check) {
      $next_check = $clock->() + 1;
      ($status, $reaped_at) = reap_if_ended($pid, $stdin);
      $ENDED = defined $status;
    }
    last if defined $status && (!%src || $clock->() > $reaped_at + 2);
    my $rin = '';
    vec($rin, fileno($_), 1) = 1 for (values %src, $wake_r);
    my $win = '';
    $stdin->{arm}->(\$rin, \$win) unless defined $status;
    my $n = select(my $rout = $rin, my $wout = $win, undef, $log->{pending}->() ? 0.05 : 1);
    if ($n > 0 && vec($rout, fileno($wake_r), 1)) { sysread($wake_r, my $x, 512); $next_check = 0 }
    for my $s (keys %src) {
      next unless $n > 0 && vec($rout, fileno($src{$s}), 1);
      my $r = sysread($src{$s}, my $data, 65536);
      if ($r) { $log->{add}->($s, $data) }
      elsif (defined $r) { $log->{eof}->($s); close $src{$s}; delete $src{$s} }
    }
    $stdin->{service}->($rout, $wout) if $n > 0 && !defined $status;
    $log->{idle}->();
  }
  $log->{close}->();
  my ($code, $sig) = POSIX::WIFSIGNALED($status)
    ? (128 + POSIX::WTERMSIG($status), POSIX::WTERMSIG($status))
    : (POSIX::WEXITSTATUS($status), 0);
  my ($ooms, $failcnt) = oom_counters($opt{memcg});
  write_json("$dir/exit.json", exitCode => $code, signal => $sig, oomKills => $ooms, failcnt => $failcnt,
    finishedAt => iso($reaped_at));
  exit 0;
}

# Reaps the command once it has ended (a zombie), after ending the rest of its
# processes; returns (wait status, time) or nothing while it runs.
sub reap_if_ended {
  my ($pid, $stdin) = @_;
  return () unless proc_state($pid) =~ /^[ZX]?$/;
  kill_rest($pid);
  waitpid($pid, 0);
  my $status = $?;
  $stdin->{close}->();
  return ($status, $clock->());
}
`;

export const SUPERVISOR_PERL = `${MAIN}\n${SUPERVISOR_PERL_IO}`;
