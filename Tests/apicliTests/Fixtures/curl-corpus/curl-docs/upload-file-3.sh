curl --upload-file "{file1,file2}" http://localhost:28139/docs
