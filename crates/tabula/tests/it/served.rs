//! A `tabula serve` of the tests' own: started on a free loopback port and a scratch data directory,
//! its address read from the line it prints, stopped (and its directory removed) when dropped.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

pub struct Served {
    child: Child,
    dir: PathBuf,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Served {
    /// Starts the server (its data directory named after `name` and this process); panics when it
    /// does not say where it listens within two minutes.
    pub fn start(name: &str) -> Served {
        let dir = std::env::temp_dir().join(format!("tabula-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
            .arg(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the tabula binary runs");
        let out = child.stdout.take().expect("the server's stdout is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut served = Served {
            child,
            dir,
            addr: String::new(),
        };
        while let Ok(line) = rx.recv_timeout(Duration::from_secs(120)) {
            if let Some(addr) = line.split("listening on http://").nth(1) {
                served.addr = addr.trim().to_string();
                return served;
            }
        }
        panic!("tabula serve did not say where it listens");
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
